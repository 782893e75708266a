// The benchmark's floor: node:http answering {"ok":true} to everything, nothing else. Run as its own process
// by scripts/bench.mjs, like the servers it is compared with.
import http from "node:http";

const body = Buffer.from('{"ok":true}');
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length });
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
const stop = () => server.close(() => process.exit(0)) && setTimeout(() => process.exit(0), 1_000).unref();
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
