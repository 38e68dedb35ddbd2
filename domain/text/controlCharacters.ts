// Control characters a client put in its input (a NUL, an escape sequence,
// a C1 control) have no place in a page or a message we render from it:
// they corrupt terminals and logs, and browsers and parsers disagree on them.
// Tab, line feed and carriage return are ordinary white space and stay.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
const CONTROLS = new RegExp(CONTROL.source, "g")

/** `text` without C0 (except tab, LF, CR), DEL and C1 control characters. */
export const withoutControlCharacters = (text: string): string =>
  CONTROL.test(text) ? text.replace(CONTROLS, "") : text
