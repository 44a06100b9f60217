package dev.evidencestore.storage;

import io.quarkus.test.junit.QuarkusTest;

/** The contract with reads streamed in 300-byte slices and 2500-byte runs: neither divides the chunks or the other. */
@QuarkusTest
class PostgresBlobStoreTest extends PostgresContract {

    @Override
    protected PostgresBlobStore.Reads reads() {
        return new PostgresBlobStore.Reads(300, 2500, 4);
    }
}
