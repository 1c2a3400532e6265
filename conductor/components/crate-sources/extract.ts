// Crate sources use the one safe tar.gz extraction of src/node (shared with the agent registry's
// binary installs): `.crate` files unpack into `<cache>/<name>-<version>`.
export { extractCrate, ExtractionError, LIMITS, readTar, safeRelativePath, sweepPartials } from '../../../src/node/tarExtract';
