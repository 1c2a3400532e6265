// The physical floor of one hop, for the benchmark: a process between client and agent that
// moves bytes and nothing else (no parsing, no routing). Whatever a conductor costs above this
// is its own work. Usage: node byteRelay.js <command> [args…]
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) throw new Error('usage: byteRelay <command> [args…]');
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on('exit', (code) => process.exit(code ?? 1));
process.stdin.on('end', () => child.stdin.end());
