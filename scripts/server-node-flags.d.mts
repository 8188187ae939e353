// Types of server-node-flags.mjs for the TypeScript code that uses it.
export declare const SERVER_NODE_FLAGS: string[];
