/** Whether anything other than white space stands before the `%PDF-` header. */
export declare function hasBytesBeforeHeader(bytes: Uint8Array): boolean;

/** Adds the kinds of active content named in the bytes to `found`; returns where /ObjStm names end. */
export declare function scanNames(bytes: Uint8Array, found: Set<string>): number[];

/** Byte-level findings: bytes before the header and the names of active content, object streams included. */
export declare function scanActiveContent(
  bytes: Uint8Array,
  options: { maxInflatedBytes: number },
): Promise<Set<string>>;
