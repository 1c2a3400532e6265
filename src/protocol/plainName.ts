// The rule for a name that becomes one path component (a sparkler's folder), shared by the
// extension (it checks `symposium.sparkle.sparkler` before passing it on) and the conductor (it
// checks every name an agent hands a Sparkle tool). Pure: imports nothing.

export const MAX_PLAIN_NAME_LENGTH = 64;

/** Control, format (bidi overrides such as U+202E, zero-width spaces and joiners) and line-separator characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Why `name` (already trimmed) cannot name one folder, or undefined when it can: 1–64 characters,
 * no path separator, no `..`, no leading dot, none of `< > : " | ? *` (unusable on Windows), and
 * no invisible or direction-changing character: a name is shown to the user (a folder, the
 * embodiment, a tool result), and such a character makes it read as another name, or reorders
 * what follows it.
 */
export function plainNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > MAX_PLAIN_NAME_LENGTH) return `is longer than ${MAX_PLAIN_NAME_LENGTH} characters`;
  if (/[/\\]/.test(name)) return 'contains a path separator (/ or \\); it names a folder, so it must be a plain name';
  if (name.includes('..')) return 'contains ".."; it names a folder, so it must be a plain name';
  if (name.startsWith('.')) return 'starts with a dot';
  const invisible = INVISIBLE.exec(name);
  if (invisible) {
    const code = invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return `contains an invisible, control or direction-changing character (U+${code}); it names a folder, so it must be a plain name`;
  }
  if (/[<>:"|?*]/.test(name)) return 'contains one of < > : " | ? *';
  return undefined;
}

/** `name` with its invisible characters shown as `?`, for a message that quotes it. */
export function visibleName(name: string): string {
  return name.replace(new RegExp(INVISIBLE.source, 'gu'), '?');
}
