// Preloaded with `node --import` into a process that must not reach any network: every way Node opens a
// connection (fetch, net, tls, http(s) through net, DNS) throws or fails with "network refused".
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import tls from "node:tls";

const refused = () => new Error("network refused in this process");
const refuse = () => {
  throw refused();
};
net.connect = refuse;
net.createConnection = refuse;
net.Socket.prototype.connect = refuse;
tls.connect = refuse;
dns.lookup = (_host, _options, callback) => (callback ?? _options)(refused());
dns.promises.lookup = () => Promise.reject(refused());
globalThis.fetch = () => Promise.reject(new TypeError("fetch failed", { cause: refused() }));
syncBuiltinESMExports();
