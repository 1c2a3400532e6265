// The real agents through the conductor (Claude Code, both ACP adapters): throughConductor.ts has the suites.
import { describeThroughConductor, itKeepsTheEmbodimentTitleBack } from './throughConductor';

describeThroughConductor(['claude-code-acp', 'claude-agent-acp'], 'claude');
itKeepsTheEmbodimentTitleBack();
