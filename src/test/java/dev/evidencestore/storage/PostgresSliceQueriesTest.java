package dev.evidencestore.storage;

import io.quarkus.test.junit.QuarkusTest;

/** The contract with no read let stream: every read queries its chunks slice by slice ({@link ChunkInput}). */
@QuarkusTest
class PostgresSliceQueriesTest extends PostgresContract {

    @Override
    protected PostgresBlobStore.Reads reads() {
        return new PostgresBlobStore.Reads(300, 2500, 0);
    }
}
