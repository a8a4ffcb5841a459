/**
 * Bad input from the user: an unknown flag, an unreadable or invalid file. The CLI prints the message as
 * one line and exits 2; nothing on disk has been changed when one is thrown.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
}
