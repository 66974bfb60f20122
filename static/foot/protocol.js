/**
 * The websocket protocol's names on the client, in one place: the message types of both
 * directions and the close codes, as games/protocol.py declares them (docs/PROTOCOL.md words
 * them; tests/rooms/test_protocol.py checks that the two lists agree).
 */

/** What the page may send. */
export const CLIENT_TYPES = Object.freeze([
  "action", "check", "sync", "next_deal", "hint", "take_choice", "look_back", "heartbeat", "react", "seat",
]);

/** What the server sends. */
export const SERVER_TYPES = Object.freeze([
  "state", "patch", "presence", "error", "notice", "checked", "take_choice", "hint", "look_back", "reaction",
  "play_again",
]);

export const CLOSE_POLICY = 4008; // a flood: too many frames at once, or waiting
export const CLOSE_TOO_BIG = 4009; // a frame over 64 KB
export const CLOSE_REFUSED = 4403; // refused for good (a banned player, a daily not to be watched yet)
export const CLOSE_NOT_FOUND = 4404; // no such game
export const CLOSE_IDLE = 4408; // nothing said for FOOT_WS_IDLE_SECONDS
export const CLOSE_TOO_MANY = 4429; // too many sockets of this browser, network or game
