// The proxy's bundle (out/conductor-proxy.js, esbuild.mjs): the proxy's command line, and the LM
// provider's backend (`conductor vscodelm`), which runs a conductor of its own in front of its
// agent and so shares nearly all of the proxy's code. A bundle of its own would repeat that code
// in the .vsix; here its remaining modules (the ACP SDK among them) load only when it runs.
export { helpText, runProxyCli } from './cli';

export const runVscodeLm = async (argv: string[]): Promise<void> => (await import('./lm/vscodelm')).runVscodeLm(argv);
