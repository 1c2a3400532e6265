// The real agents through the conductor (Codex and OpenCode): throughConductor.ts has the suites.
import { describeThroughConductor } from './throughConductor';

describeThroughConductor(['codex', 'opencode'], 'codex-opencode');
