import { connect } from "node:net";

/** Where the Redis tests look for a server (.ci/run starts one there). */
export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether a Redis server answers PING at `url` (`pnpm test` elsewhere may have none). */
export function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}
