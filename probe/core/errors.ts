/**
 * Bad input from the user: an unknown flag, an unreadable or invalid file. The CLI prints the message as
 * one line and exits 2; nothing on disk has been changed when one is thrown.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
}

const LINE_BREAKS = { '\r': '\\r', '\n': '\\n', '\u2028': '\\u2028', '\u2029': '\\u2029' } as const;

/**
 * A message as the one line the CLI promises: a line break inside it (a file name, a flag's value, the
 * text JSON.parse quotes from a file that is not JSON) is shown escaped, `\n`, as in a JSON string.
 */
export function oneLine(message: string): string {
  return message.replace(/[\r\n\u2028\u2029]/g, (cut) => LINE_BREAKS[cut as keyof typeof LINE_BREAKS]);
}
