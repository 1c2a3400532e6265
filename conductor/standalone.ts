// The npm package's command, `symposium-acp` (built by scripts/package-conductor.mjs): the
// conductor's start (launch.ts) in standalone mode, where the proxy also reads the user's
// configuration file (configFile.ts) and messages carry the command's own name.
import { launch } from './launch';

launch(process.argv.slice(2), 'standalone');
