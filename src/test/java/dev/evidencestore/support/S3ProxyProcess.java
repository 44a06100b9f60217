package dev.evidencestore.support;

import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.jboss.logmanager.LogContext;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.logging.Level;

/**
 * S3Proxy as a process of its own: objects kept as files under a directory (its {@code filesystem} backend), SigV4
 * with the test keys of {@link S3ProxyServer}, and its bucket created. It runs apart from the tests' JVM, as a store
 * the service reaches over the network does: its threads, memory and libraries (Jetty 12, Jackson 3) stay its own.
 * <p>
 * {@code java -cp target/test-classes:$(cat target/s3proxy.classpath) dev.evidencestore.support.S3ProxyProcess
 * [port [basedir [--exit-with-stdin]]]}, by default port 9000 and {@code target/s3proxy/main}; https with
 * {@code -Ds3proxy.keystore=PATH -Ds3proxy.keystore-password=SECRET}. The classpath file is
 * written by {@code ./mvnw test-compile}; objects already under basedir are served again.
 */
public final class S3ProxyProcess {

    /** The line that tells whoever started the process where it listens. */
    static final String READY = "S3Proxy listening on ";

    /**
     * A PKCS12 key store with the key and certificate for 127.0.0.1: S3Proxy then listens on https only, as S3 does,
     * so that an SDK sends its payloads unsigned with their checksums, as it does to AWS (bench/run.sh).
     */
    static final String KEYSTORE = "s3proxy.keystore";
    static final String KEYSTORE_PASSWORD = "s3proxy.keystore-password";

    private S3ProxyProcess() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 9000;
        Path basedir = Path.of(args.length > 1 ? args[1] : "target/s3proxy/main");
        boolean exitWithStdin = args.length > 2 && args[2].equals("--exit-with-stdin");
        infoLogging();

        BlobStore files = files(basedir);
        String keystore = System.getProperty(KEYSTORE);
        S3Proxy.Builder builder = S3Proxy.builder()
                .blobStore(files)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
                // a header S3Proxy does not implement is ignored rather than refused
                .ignoreUnknownHeaders(true);
        if (keystore == null) {
            builder.endpoint(URI.create("http://127.0.0.1:" + port));
        } else {
            builder.secureEndpoint(URI.create("https://127.0.0.1:" + port))
                    .keyStore(keystore, System.getProperty(KEYSTORE_PASSWORD, ""));
        }
        S3Proxy proxy = builder.build();
        proxy.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(proxy, files)));
        String listening = keystore == null ? "http://127.0.0.1:" + proxy.getPort()
                : "https://127.0.0.1:" + proxy.getSecurePort();
        System.out.println(READY + listening + " bucket " + S3ProxyServer.BUCKET
                + ", access key " + S3ProxyServer.ACCESS_KEY + ", secret " + S3ProxyServer.SECRET_KEY
                + ", objects under " + basedir.toAbsolutePath());
        System.out.flush();
        if (exitWithStdin) {
            // the tests hold our stdin open: when their JVM ends, however it ends, so do we
            while (System.in.read() >= 0) {
                // nothing is sent; only the end counts
            }
            System.exit(0);
        }
        Thread.currentThread().join();
    }

    /**
     * The slf4j binding on this classpath is the JBoss LogManager's, whose loggers, unconfigured as here, have debug
     * and trace enabled: Jetty then formats a debug message (each with String.format of its connection's state) for
     * every buffer it reads, only for the handler to drop it. That took 31% of S3Proxy's CPU in the benchmark's s3
     * batch run (async-profiler); S3Proxy as distributed logs at info.
     */
    private static void infoLogging() {
        LogContext.getLogContext().getLogger("").setLevel(Level.INFO);
    }

    private static BlobStore files(Path basedir) throws IOException {
        Files.createDirectories(basedir);
        Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", basedir.toAbsolutePath().toString());
        BlobStore files = BlobStores.create("filesystem", properties);
        if (!files.containerExists(S3ProxyServer.BUCKET)) {
            files.createContainer(S3ProxyServer.BUCKET);
        }
        return files;
    }

    private static void stop(S3Proxy proxy, BlobStore files) {
        try {
            proxy.stop();
        } catch (Exception e) {
            e.printStackTrace();
        }
        files.close();
    }
}
