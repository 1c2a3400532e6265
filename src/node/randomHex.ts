// Random hex for the names of temporary files (atomic writes, extraction folders). Through the
// Web Crypto global rather than an import of node:crypto: the modules that name temporary files
// load with the conductor, and node:crypto takes ~10 ms to load, which the global defers to the
// first name made.
export const randomHex = (bytes: number): string => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
