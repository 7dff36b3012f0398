// The tests' servers read request bodies as the shipped stand-ins do.
export { readBody } from "../../src/testing/local-http-server.js";
