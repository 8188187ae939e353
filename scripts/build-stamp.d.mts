// Types of build-stamp.mjs for the TypeScript tests that use it.
export const ROOT: string;
export function buildInputs(root?: string): string[];
export function inputsHash(root?: string): string;
export function stampFile(root?: string): string;
export function buildOutputs(root?: string): string[];
export function buildState(root?: string): { fresh: true; builtAt: string } | { fresh: false; reason: string };
