package dev.evidencestore.storage;

/**
 * A stored read whose source already fetches ahead of its reader: PostgreSQL pushes a COPY's rows into the socket,
 * the kernel reads a file ahead into its page cache. {@link ReadAhead} passes such a stream through: a second thread
 * handing blocks over would only add a copy, an allocation and a wake-up per block.
 */
interface PrefetchedInput {
}
