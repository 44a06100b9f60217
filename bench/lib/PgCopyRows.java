import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a file as PostgreSQL's binary COPY format, one row (seq integer, data bytea) per chunk of it, so that
 * {@code COPY bench_bytea FROM STDIN (FORMAT binary)} loads the same bytes the postgres backend stores, in rows of
 * the same size: the reference of bench/run.sh for that backend's ingest.
 *
 *   java bench/lib/PgCopyRows.java IN OUT [CHUNK_BYTES, default 1048576]
 */
public final class PgCopyRows {

    public static void main(String[] args) throws IOException {
        int chunk = args.length > 2 ? Integer.parseInt(args[2]) : 1024 * 1024;
        try (InputStream in = Files.newInputStream(Path.of(args[0]));
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
                     Files.newOutputStream(Path.of(args[1])), 1 << 20))) {
            out.write("PGCOPY\n".getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[] {(byte) 0xff, '\r', '\n', 0});
            out.writeInt(0); // flags
            out.writeInt(0); // header extension length
            byte[] buffer = new byte[chunk];
            int seq = 0;
            int n;
            while ((n = in.readNBytes(buffer, 0, chunk)) > 0) {
                out.writeShort(2);
                out.writeInt(4);
                out.writeInt(seq++);
                out.writeInt(n);
                out.write(buffer, 0, n);
            }
            out.writeShort(-1);
        }
    }
}
