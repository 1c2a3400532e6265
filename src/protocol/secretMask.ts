// Credentials masked in what Symposium records of the protocol traffic: the conductor's trace
// lines (conductor/trace.ts, files and the editor's pipe) and the traffic viewer's rows and saved
// traces (src/protocol/traffic.ts). One implementation for both, as a JSON.stringify replacer.
//
// A value is masked for what it is called and for what it looks like, since a name list alone
// misses `OPENAI_KEY`, `GH_PAT`, a `PRIVATE-KEY` header or a token pasted into a command line:
// - by name: a property, a `{name, value}` pair (headers, env entries), an env assignment
//   `NAME=…`, a query parameter `?key=…`, a command-line flag `--api-key=…` / `--token …` (also
//   as two entries of an args array), or a header line `PRIVATE-KEY: …`, whose name says secret
//   (isSecretName: token, secret, password, credential, cookie, authorization, api/private/access
//   key anywhere in it; key, pat, auth, pass, pwd as a word of it);
// - by shape: bearer tokens, the userinfo of a URL (`https://user:pass@…`), PEM private keys, and
//   the token formats of common services (OpenAI/Anthropic `sk-…`, GitHub `ghp_…` and
//   `github_pat_…`, Slack `xox…-`, AWS `AKIA…`, GitLab `glpat-…`, Google `AIza…`, npm, Hugging Face);
// - the settings of OpenCtx providers (`{uri, settings}` entries), whatever they hold.
// Masking errs on the side of hiding: a trace is for diagnostics, and a prose word after
// "--token" is a small loss next to a leaked key. Pure: no Node, DOM or vscode imports.
import { isObject } from './guards';

export const REDACTED = '[redacted]';

/** Words that say secret wherever they appear in a name. */
const SECRET_WORDS = /token|secret|passw|passphrase|credential|cookie|authorization|api[-_]?key|private[-_]?key|access[-_]?key/i;
/** Words that say secret only as a word of a name (`GH_PAT`, `apiKey`), not inside one (`PATH`, `keyboard`). */
const SECRET_SEGMENTS = new Set(['key', 'pat', 'auth', 'pass', 'pwd']);
/** Names of protocol fields that are identifiers, not credentials (MCP and LSP progress tokens). */
const NOT_SECRET_KEYS = new Set(['progressToken']);

/** Whether a variable, header, parameter or flag name says its value is a credential. */
export function isSecretName(name: string): boolean {
  if (SECRET_WORDS.test(name)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_SEGMENTS.has(w));
}

/** A whole secret value: an auth scheme stays visible ("Bearer [redacted]"), the rest is masked. */
function maskWhole(value: string): string {
  const scheme = /^\s*(Bearer|Basic|Token|Digest)\s/i.exec(value);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/** A value as it appears in text: quoted (kept quoted) or one word. */
const VALUE = String.raw`("[^"\n]*"|'[^'\n]*'|[^\s&#"'\x60;,)]+)`;
const quotedLike = (value: string): string =>
  value.startsWith('"') ? `"${REDACTED}"` : value.startsWith("'") ? `'${REDACTED}'` : REDACTED;

const PEM_PRIVATE_KEY = /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----)/g;
/** The userinfo of a URL: found from its `://` (a scan from every word start cost more). */
const URL_USERINFO = /:\/\/([^\s/?#@"'<>]+)@/g;
/** `Name: value` (a header, a YAML or JSON field); the value may start with an auth scheme. */
const HEADER_LINE = new RegExp(String.raw`(?<![\w-])([A-Za-z][\w-]*)("?\s*:\s*)((?:(?:Bearer|Basic|Token|Digest)\s+)?${VALUE})`, 'g');
/** `NAME=value`, `--flag=value`, `?param=value`, `&param=value`. */
const ASSIGNMENT = new RegExp(String.raw`(?<![\w-])(--?[A-Za-z][\w.-]*|[A-Za-z_][\w.-]*)=${VALUE}`, 'g');
/** `--flag value` (the value not itself a flag). */
const FLAG_AND_VALUE = new RegExp(String.raw`(?<![\w-])(--?[A-Za-z][\w.-]*)(\s+)(?!-)${VALUE}`, 'g');
const BEARER = /\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const TOKEN_SHAPES = new RegExp(
  [
    String.raw`(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}`, // OpenAI, Anthropic (sk-proj-…, sk-ant-…)
    String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`, // GitHub tokens
    String.raw`\bgithub_pat_[A-Za-z0-9_]{20,}`, // GitHub fine-grained tokens
    String.raw`\bxox[abposre]-[A-Za-z0-9-]{10,}`, // Slack
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`, // AWS access key ids
    String.raw`\bglpat-[A-Za-z0-9_-]{20,}`, // GitLab
    String.raw`\bAIza[0-9A-Za-z_-]{35}`, // Google API keys
    String.raw`\bnpm_[A-Za-z0-9]{36}`, // npm
    String.raw`\bhf_[A-Za-z0-9]{30,}`, // Hugging Face
  ].join('|'),
  'g',
);

/**
 * Whether `text` (a message's JSON, or one string of it) may hold anything masked here: a
 * secret-looking word, a bearer token, URL userinfo, a known token prefix, a PEM key, OpenCtx
 * settings, or a \u escape (which could spell any of these). False positives only cost the slower,
 * masking serialization; the spec checks that every masked case passes.
 */
export function mayHoldSecret(text: string): boolean {
  return MAYBE_SECRET.test(text) || MAYBE_PAT.test(text);
}
const MAYBE_SECRET = new RegExp(
  [
    String.raw`token|secret|credential|cookie|key|auth|pass|pwd|bearer|settings|\\u`,
    String.raw`:\/\/[^\s/?#@"]*@`,
    String.raw`(?<![a-z0-9])sk-|gh[pousr]_|github_pat_|xox[a-z]-|akia|asia|glpat-|aiza|npm_|hf_`,
  ].join('|'),
  'i',
);
/** "pat" as a word of a name; not inside the ever-present "path", "patch", "pattern". */
const MAYBE_PAT = /[Pp][Aa][Tt](?!h|ch|tern)/;

/** `text` with every credential found by shape or by the name before it masked. */
export function maskSecretsInText(text: string): string {
  if (!mayHoldSecret(text)) return text;
  return text
    .replace(PEM_PRIVATE_KEY, `$1${REDACTED}$2`)
    .replace(URL_USERINFO, (all, userinfo: string) =>
      // `git@…` names a user; `user:password@…` or a long token as the user is a credential.
      userinfo.includes(':') || userinfo.length >= 20 ? `://${REDACTED}@` : all,
    )
    .replace(HEADER_LINE, (all, name: string, colon: string, value: string) =>
      // Prose ("the key: …") is left alone: a header or field name, or a word that always means secret.
      isSecretName(name) && (/[-_]/.test(name) || SECRET_WORDS.test(name))
        ? `${name}${colon}${value.startsWith('"') || value.startsWith("'") ? quotedLike(value) : maskWhole(value)}`
        : all,
    )
    .replace(ASSIGNMENT, (all, name: string, value: string) => (isSecretName(name) ? `${name}=${quotedLike(value)}` : all))
    .replace(FLAG_AND_VALUE, (all, flag: string, space: string, value: string) =>
      isSecretName(flag) ? `${flag}${space}${quotedLike(value)}` : all,
    )
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(TOKEN_SHAPES, REDACTED);
}

/** An args entry that is a flag naming a secret, whose value is the next entry (`--token`, `x`). */
const isSecretFlag = (v: unknown): boolean => typeof v === 'string' && /^--?[A-Za-z][\w.-]*$/.test(v) && isSecretName(v);

/**
 * JSON.stringify replacer that masks credentials (see the header). Called with the holder as
 * `this`, so an args array's value is masked after its flag. The message itself is not changed.
 */
export function maskSecrets(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'string') {
    if (Array.isArray(this)) return Number(key) > 0 && isSecretFlag(this[Number(key) - 1]) ? REDACTED : maskSecretsInText(value);
    if (key !== '' && !NOT_SECRET_KEYS.has(key) && isSecretName(key)) return maskWhole(value);
    return maskSecretsInText(value);
  }
  if (isObject(value)) {
    if (typeof value.name === 'string' && typeof value.value === 'string' && isSecretName(value.name))
      return { ...value, value: maskWhole(value.value) };
    if (typeof value.uri === 'string' && isObject(value.settings)) return { ...value, settings: REDACTED };
  }
  return value;
}
