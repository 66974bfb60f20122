/** The /join/ page without a code: the invite code box alone (code_box.js). */
import { connectCodeBox } from "./code_box.js";

connectCodeBox(document.getElementById("code-form"));
