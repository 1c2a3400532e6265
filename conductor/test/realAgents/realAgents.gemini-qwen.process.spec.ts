// The real agents through the conductor (Gemini CLI and Qwen Code): throughConductor.ts has the suites.
import { describeThroughConductor, describeSparkleToolsCaveat } from './throughConductor';

describeThroughConductor(['gemini', 'qwen'], 'gemini-qwen');
describeSparkleToolsCaveat();
