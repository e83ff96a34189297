// Types of scripts/local-registry.mjs, for the tests that start the registry.

/** A running local registry: its URL (with a trailing slash), its folder, and how to stop it. */
export interface LocalRegistry {
  url: string;
  folder: string;
  stop(): Promise<void>;
}

export function startLocalRegistry(options?: {
  upstream?: string;
  log?: (line: string) => void;
}): Promise<LocalRegistry>;
export function publishWorkspace(registryUrl: string): Promise<Array<{ name: string; version: string }>>;
