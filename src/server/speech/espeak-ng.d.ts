// Types for the espeak-ng npm package: its Emscripten build of the espeak-ng command line (no bundled types).
declare module 'espeak-ng' {
  interface EmscriptenFs {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
  }
  export interface ESpeakNgModule {
    FS: EmscriptenFs;
  }
  export interface ESpeakNgOptions {
    arguments: string[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    preRun?: Array<() => void>;
    instantiateWasm?: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
    [key: string]: unknown;
  }
  const ESpeakNg: (options: ESpeakNgOptions) => Promise<ESpeakNgModule>;
  export default ESpeakNg;
}
