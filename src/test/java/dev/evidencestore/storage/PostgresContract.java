package dev.evidencestore.storage;

import dev.evidencestore.support.Sql;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;

import java.sql.SQLException;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The contract on real PostgreSQL, with 1000-byte chunks so that every case crosses chunk boundaries. */
abstract class PostgresContract extends BlobStoreContract {

    @Inject
    AgroalDataSource dataSource;

    private PostgresBlobStore store;

    /** How the store under test reads. */
    protected abstract PostgresBlobStore.Reads reads();

    @BeforeEach
    void smallChunks() {
        store = new PostgresBlobStore(dataSource, 1000, 20, Duration.ofSeconds(5), reads());
    }

    @Override
    protected BlobStore store() {
        return store;
    }

    @Override
    protected void assertNoLeftovers() throws SQLException {
        long orphans = Sql.count("""
                SELECT count(*) FROM blob_chunk c
                WHERE NOT EXISTS (SELECT 1 FROM blob_content b WHERE b.content_id = c.content_id)""");
        assertEquals(0, orphans, "chunk rows that no blob_content names");
    }
}
