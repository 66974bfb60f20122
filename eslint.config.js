// ESLint for the browser client (static/foot): ES modules in the browser, Django's /jsi18n/
// catalogue reached through globalThis (i18n.js). The rules are those that find real bugs —
// undefined and unused names, unreachable code, a misspelt typeof, a self-comparison — not layout.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/", "mutants/"] },
  js.configs.recommended,
  {
    files: ["static/foot/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-use-before-define": ["error", { functions: false, classes: false, variables: false }],
      "no-shadow": "off",
      eqeqeq: ["error", "smart"],
      "no-implicit-globals": "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-eval": "error",
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-constructor-return": "error",
      "array-callback-return": "error",
      "no-useless-assignment": "error",
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
