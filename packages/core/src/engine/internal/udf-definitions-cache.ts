import type { IncassoStore, UdfFieldType } from "../../store-port.js";

/** What validation needs of a custom field definition. */
export interface UdfDefinition {
  name: string;
  type: UdfFieldType;
}

/**
 * The custom field definitions of each organisation, kept for `ttlMs` after they were read, so an
 * order does not pay a round trip for a list that changes only when the operator edits it
 * (decision orders-engine-udf-definitions-cache). A read in flight is shared by the orders that
 * arrive meanwhile; a failed read is not kept. At most 10,000 organisations; the oldest go first.
 */
export class UdfDefinitionsCache {
  readonly #entries = new Map<string, { at: number; definitions: Promise<UdfDefinition[]> }>();
  readonly #store: IncassoStore;
  readonly #ttlMs: number;

  constructor(store: IncassoStore, ttlMs: number) {
    this.#store = store;
    this.#ttlMs = ttlMs;
  }

  get(organisationId: string, now = Date.now()): Promise<UdfDefinition[]> {
    if (this.#ttlMs <= 0) return this.#read(organisationId);
    const hit = this.#entries.get(organisationId);
    if (hit !== undefined && now - hit.at < this.#ttlMs) return hit.definitions;
    const definitions = this.#read(organisationId);
    this.#entries.delete(organisationId);
    if (this.#entries.size >= 10_000) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(organisationId, { at: now, definitions });
    definitions.catch(() => {
      if (this.#entries.get(organisationId)?.definitions === definitions)
        this.#entries.delete(organisationId);
    });
    return definitions;
  }

  async #read(organisationId: string): Promise<UdfDefinition[]> {
    const records = await this.#store.udfFields.list(organisationId);
    return records.map((d) => ({ name: d.name, type: d.type }));
  }
}
