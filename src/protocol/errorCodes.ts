// JSON-RPC error codes, in one place for both ends of the wire: the conductor (conductor/) sends
// them and the extension host (src/) recognises them. Three groups: JSON-RPC 2.0's own, the ones
// ACP defines on top, and ours (in the range JSON-RPC leaves to implementations, -32000..-32099).
// Pure constants: no vscode, DOM or Node imports.

export const ErrorCodes = {
  // JSON-RPC 2.0
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  // ACP
  authRequired: -32000,
  resourceNotFound: -32002,
  requestCancelled: -32800,
  // Symposium
  /** The downstream agent process is gone: every request waiting on it fails with this code. */
  agentExited: -32099,
} as const;
