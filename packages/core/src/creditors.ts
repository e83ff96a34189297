import type {
  CreateCreditorRequest,
  Creditor,
  CreditorList,
  ListCreditorsQuery,
} from "./creditor-schemas.js";
import { CoreError } from "./errors.js";
import { newId } from "./ids.js";
import { fromBase64Url, toBase64Url, utf8Bytes, utf8Text } from "./internal/bytes.js";
import type { Principal } from "./principal.js";
import type { CreditorRecord, IncassoStore } from "./store-port.js";

function assertCreditorManagement(principal: Principal): void {
  // Spec: Creditor management "only after activation"; without it 403 creditor_feature_disabled.
  if (!principal.creditorManagement) {
    throw new CoreError(
      "creditor_feature_disabled",
      "Creditor management is not activated for this key; ask the operator to activate it.",
    );
  }
}

/**
 * A stored creditor as a wire object.
 *
 * @example
 * const creditor = toCreditor(record); // { id, object: "creditor", reference, name, created_at }
 */
export function toCreditor(record: CreditorRecord): Creditor {
  return {
    id: record.id,
    object: "creditor",
    reference: record.reference,
    name: record.name,
    created_at: record.createdAt.toISOString(),
  };
}

const CURSOR_ID = /^cred_[0-9a-f]{16}$/;

function decodeCursor(cursor: string): string {
  const bytes = fromBase64Url(cursor);
  const id = bytes === null ? "" : utf8Text(bytes);
  if (!CURSOR_ID.test(id) || toBase64Url(utf8Bytes(id)) !== cursor) {
    throw new CoreError("invalid_cursor", "The cursor is not one this API returned.", { field: "cursor" });
  }
  return id;
}

/**
 * POST /creditors: creates a creditor under the principal's organisation. Throws
 * `creditor_feature_disabled` when the key's switch is off and `creditor_exists` for a reference
 * the organisation already uses (spec: Creditor management).
 *
 * @example
 * const creditor = await createCreditor(store, principal, { reference: "ACME-1", name: "Acme Holding BV" });
 */
export async function createCreditor(
  store: IncassoStore,
  principal: Principal,
  body: CreateCreditorRequest,
  options: { now?: Date } = {},
): Promise<Creditor> {
  assertCreditorManagement(principal);
  const record = await store.creditors.create({
    id: newId("cred"),
    organisationId: principal.organisationId,
    reference: body.reference,
    name: body.name,
    now: options.now ?? new Date(),
  });
  return toCreditor(record);
}

/**
 * GET /creditors: the creditors of the principal's organisation, oldest first, a page at a time.
 *
 * @example
 * const page = await listCreditors(store, principal, { limit: 25 });
 * if (page.has_more) await listCreditors(store, principal, { limit: 25, cursor: page.next_cursor! });
 */
export async function listCreditors(
  store: IncassoStore,
  principal: Principal,
  query: ListCreditorsQuery,
): Promise<CreditorList> {
  assertCreditorManagement(principal);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await store.creditors.list({
    organisationId: principal.organisationId,
    limit: query.limit,
    ...(after === undefined ? {} : { after }),
  });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = page[page.length - 1];
  return {
    object: "list",
    data: page.map(toCreditor),
    has_more: hasMore,
    next_cursor: hasMore && last ? toBase64Url(utf8Bytes(last.id)) : null,
  };
}
