import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A port nothing listens on now (the kernel's pick, released at once). */
async function sparePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A `redis-server` of the test's own, on a spare port and keeping nothing on disk, that the test can
 * stop and start again on the same port (an outage, a restart).
 */
export class RedisServer {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await sparePort());
    await server.resume();
    return server;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it again (same port, empty: nothing was saved); resolves once it accepts connections. */
  async resume() {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.process = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
    child.stdout.resume();
  }

  /** Stops it (SIGTERM); resolves once the process has exited, its port closed. */
  async stop() {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
