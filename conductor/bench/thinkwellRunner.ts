// The peer conductor for the benchmark: @thinkwell/conductor 0.5.7 (the TypeScript ACP conductor
// a user would pick instead of ours), run as a stdio process like ours: this process's
// stdin/stdout is the client side, the agent command is spawned behind it. The package has no
// CLI, so this file is the few lines a user would write. Usage: node thinkwellRunner.js <agent command…>
import { createInterface } from 'node:readline';

interface Message {
  [key: string]: unknown;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length === 0) throw new Error('usage: thinkwellRunner <agent command> [args…]');
  const tw = await import('@thinkwell/conductor');
  // The client side: this process's stdio as one NDJSON connection.
  const client = {
    connect: () => {
      const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
      return Promise.resolve({
        send: (m: Message) => void process.stdout.write(`${JSON.stringify(m)}\n`),
        messages: (async function* () {
          for await (const line of rl) if (line.trim()) yield JSON.parse(line) as Message;
        })(),
        close: () => {
          rl.close();
          return Promise.resolve();
        },
      });
    },
  };
  const conductor = new tw.Conductor({
    instantiator: tw.fromCommands([{ command: argv[0]!, args: argv.slice(1) }]),
    logging: { level: 'error' },
  });
  await conductor.connect(client as unknown as Parameters<typeof conductor.connect>[0]);
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
