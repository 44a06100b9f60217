import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The ceiling of any read the service checks as it serves: SHA-256 over a file with the JDK's MessageDigest, as the
 * service hashes (256 KiB reads). Prints MB/s of the fastest of three passes (the first ones warm the JIT), and the
 * hex digest. Run as a source file: java bench/lib/Sha256Rate.java FILE
 */
public class Sha256Rate {

    public static void main(String[] args) throws IOException, NoSuchAlgorithmException {
        Path file = Path.of(args[0]);
        double best = 0;
        String hex = "";
        for (int pass = 0; pass < 3; pass++) {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[256 * 1024];
            long bytes = 0;
            long start = System.nanoTime();
            try (InputStream in = Files.newInputStream(file)) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    sha256.update(buffer, 0, n);
                    bytes += n;
                }
            }
            hex = HexFormat.of().formatHex(sha256.digest());
            best = Math.max(best, bytes / 1e6 / ((System.nanoTime() - start) / 1e9));
        }
        System.out.printf("%.0f %s%n", best, hex);
    }
}
