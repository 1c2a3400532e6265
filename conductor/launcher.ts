// The editor's entry point (out/conductor.js): the conductor's start (launch.ts) with the command
// line the extension builds. It never reads a configuration file: the extension passes flags.
import { launch } from './launch';

launch(process.argv.slice(2), 'editor');
