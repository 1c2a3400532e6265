// Identity ElizACP reports in `initialize` (agentInfo) and to MCP servers (clientInfo).
export const ELIZA_NAME = 'elizacp';
export const ELIZA_VERSION = '0.1.0';
