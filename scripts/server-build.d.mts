// Types of scripts/server-build.mjs for the TypeScript that imports it (its test).
export declare const ROOT: string;
export declare function serverDist(): string;
export declare function serverBundle(): string;
export declare function serverBuildIsStale(): boolean;
export declare function buildServer(log?: (line: string) => void): Promise<void>;
export declare function buildServerIfStale(log?: (line: string) => void): Promise<void>;
