// The ACP SDK's code, loaded when the first agent starts instead of with the extension. Importing
// it builds its ~470 zod schemas, a few hundred milliseconds on a slow machine, and VS Code loads
// the extension when the chat view opens: the view waited for it. The shipped extension has the
// SDK (with zod) in a bundle of its own, out/acp.js, which the import below becomes (esbuild.mjs
// separateBundles), so extension.js does not carry it either.
// Type imports of the SDK cost nothing and stay where they are; code uses it through here.
import type * as Sdk from '@agentclientprotocol/sdk';

let loaded: typeof Sdk | undefined;
let loading: Promise<typeof Sdk> | undefined;

/** Loads the SDK once; later calls share the same load. */
export function loadAcpSdk(): Promise<typeof Sdk> {
  return (loading ??= import('@agentclientprotocol/sdk').then((sdk) => (loaded = sdk)));
}

/**
 * The SDK, once `loadAcpSdk()` has settled. Agent connections exist only after it (the agent
 * actor loads it before connecting), so the client's request handlers can use it synchronously.
 */
export function acpSdk(): typeof Sdk {
  if (!loaded) throw new Error('the ACP SDK was used before it was loaded (loadAcpSdk)');
  return loaded;
}

/** The SDK's `RequestError`, whose factories answer an agent's request with a JSON-RPC error. */
export const acpRequestError = (): typeof Sdk.RequestError => acpSdk().RequestError;
