package dev.evidencestore.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real S3 API for the s3 backend's tests: an {@link S3ProxyProcess} started on a free port over an empty
 * directory under {@code target/s3proxy}, and stopped with the tests. As a Quarkus test resource it also points the
 * service's s3 backend at itself.
 */
public final class S3ProxyServer implements QuarkusTestResourceLifecycleManager, AutoCloseable {

    public static final String BUCKET = "evidence";
    public static final String ACCESS_KEY = "evidence-test";
    public static final String SECRET_KEY = "evidence-test-secret";
    public static final String REGION = "us-east-1";
    public static final Path ROOT = Path.of("target/s3proxy");
    /** Written by maven-dependency-plugin (pom.xml): the test classpath without the Guice that shadows S3Proxy's. */
    static final Path CLASSPATH = Path.of("target/s3proxy.classpath");

    private static final Duration STARTUP = Duration.ofSeconds(60);

    private Process process;
    private URI endpoint;
    private Path keystore;

    /** Starts a server over an emptied {@code target/s3proxy/<name>}, logging to {@code <name>.log} beside it. */
    public static S3ProxyServer fresh(String name) {
        S3ProxyServer server = new S3ProxyServer();
        server.launch(name, List.of());
        return server;
    }

    /**
     * As {@link #fresh(String)}, on https only, as S3 is reached, with a new EC key and certificate for 127.0.0.1
     * made by keytool in {@code target/s3proxy/<name>-tls}; {@link #trustingContext()} trusts it.
     */
    public static S3ProxyServer freshOverHttps(String name) {
        S3ProxyServer server = new S3ProxyServer();
        try {
            server.keystore = TlsKey.make(ROOT.resolve(name + "-tls"));
        } catch (IOException e) {
            throw new UncheckedIOException("no key for S3Proxy over https", e);
        }
        server.launch(name, List.of("-D" + S3ProxyProcess.KEYSTORE + "=" + server.keystore.toAbsolutePath(),
                "-D" + S3ProxyProcess.KEYSTORE_PASSWORD + "=" + TlsKey.PASSWORD));
        return server;
    }

    /** A TLS context that trusts this server's certificate, and no other, for a server started over https. */
    public SSLContext trustingContext() {
        return TlsKey.trusting(keystore);
    }

    /** Quarkus test resource: a fresh server, and the service's s3 backend pointed at it. */
    @Override
    public Map<String, String> start() {
        launch("api", List.of());
        return serviceSettings();
    }

    /** The settings that point the service's s3 backend at this server. */
    public Map<String, String> serviceSettings() {
        return Map.of(
                "evidence.storage.backend", "s3",
                "evidence.storage.s3.bucket", BUCKET,
                "evidence.storage.s3.endpoint", endpoint.toString(),
                "evidence.storage.s3.region", REGION,
                "evidence.storage.s3.path-style", "true",
                "evidence.storage.s3.access-key-id", ACCESS_KEY,
                "evidence.storage.s3.secret-access-key", SECRET_KEY);
    }

    @Override
    public void stop() {
        close();
    }

    private void launch(String name, List<String> properties) {
        Path basedir = ROOT.resolve(name);
        Path log = ROOT.resolve(name + ".log");
        try {
            deleteRecursively(basedir);
            Files.createDirectories(basedir);
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m"));
            command.addAll(properties);
            command.addAll(List.of("-cp", classpath(), S3ProxyProcess.class.getName(),
                    "0", basedir.toAbsolutePath().toString(), "--exit-with-stdin"));
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            endpoint = awaitReady(log);
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("S3Proxy did not start; see " + log, e);
        }
    }

    private static String classpath() throws IOException {
        if (!Files.exists(CLASSPATH)) {
            throw new IOException(CLASSPATH + " is missing: run ./mvnw test-compile first");
        }
        return Path.of("target/test-classes").toAbsolutePath() + ":" + Files.readString(CLASSPATH).strip();
    }

    private URI awaitReady(Path log) throws IOException {
        Instant deadline = Instant.now().plus(STARTUP);
        while (Instant.now().isBefore(deadline)) {
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith(S3ProxyProcess.READY)) {
                    return URI.create(line.substring(S3ProxyProcess.READY.length()).split(" ")[0]);
                }
            }
            if (!process.isAlive()) {
                throw new IOException("S3Proxy exited with " + process.exitValue() + ":\n" + Files.readString(log));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while S3Proxy started", e);
            }
        }
        throw new IOException("S3Proxy did not say it was ready within " + STARTUP + ":\n" + Files.readString(log));
    }

    public URI endpoint() {
        return endpoint;
    }

    /** A client of this server, set up as the service sets up its own. */
    public S3Client client() {
        return clientBuilder(endpoint).build();
    }

    public static S3ClientBuilder clientBuilder(URI endpoint) {
        return S3Client.builder()
                .httpClientBuilder(ApacheHttpClient.builder())
                .endpointOverride(endpoint)
                .region(Region.of(REGION))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build());
    }

    @Override
    public void close() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
