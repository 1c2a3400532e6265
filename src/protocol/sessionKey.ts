// The key of one agent session in the host's maps (pending permissions, approved commands,
// terminals, early updates, tab routing). Session ids are unique only within one agent process,
// so the key pairs the session id with the agent actor's key. Both are strings from elsewhere
// (the session id is the agent's), so they are joined in a way no pair of strings can imitate
// another: as a JSON array. Pure: no vscode, DOM or Node imports.

export const sessionKey = (actorKey: string, sessionId: string): string => JSON.stringify([actorKey, sessionId]);
