// The conductor's version, reported in capabilities and by the symposium MCP server.
export const CONDUCTOR_VERSION = '0.1.0';
