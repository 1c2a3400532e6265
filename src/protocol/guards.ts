// Type guards for plain JSON values, shared by every layer (extension host, webview, conductor):
// the one definition of "a JSON object" (not null, not an array) that everything that reads
// unvalidated input starts from. Pure: no vscode, DOM or Node imports.

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
