// Types of check-shared.mjs for the TypeScript test that uses it.
export const COPIES: { shared: string; copy: string }[];
export function compareShared(sharedDir: string, root?: string): string[];
