package dev.evidencestore.cli;

import dev.evidencestore.verify.Ed25519Keys;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged service (target/quarkus-app/quarkus-run.jar at the repository root) run the way the service's own
 * integration tests run it: the production profile, throwaway JWT and audit keys (production refuses the dev ones),
 * a database of its own on the local PostgreSQL, and a free port. Absent jar: the tests are skipped with a message,
 * unless EVIDENCE_REQUIRE_SERVICE=1, as CI sets it, makes that a failure.
 */
final class PackagedService {

    static final String ISSUER = "https://evidence-store.dev/cli-it";
    static final String PG_HOST = System.getenv().getOrDefault("EVIDENCE_TEST_PGHOST", "127.0.0.1:5432");
    private static final Path JAR = Path.of(System.getProperty("evidence.service.jar",
            "../target/quarkus-app/quarkus-run.jar"));
    private static final String RUNTIME_ROLE = "evidence_runtime";
    private static PackagedService shared;

    final String name;
    final String database;
    final String origin;
    final int port;
    final Path directory;
    final Path auditPublicKey;
    private final PrivateKey jwtKey;
    private Process process;

    private PackagedService(String name) throws IOException {
        this.name = name;
        this.database = "evidence_cli_it_" + name + "_" + System.getenv().getOrDefault("EVIDENCE_TEST_DB", "main");
        this.origin = "evidence-store.test/cli-" + name;
        this.port = freePort();
        this.directory = Files.createDirectories(Path.of("target/it-service", name));
        KeyPair jwt = generate("RSA");
        KeyPair audit = generate("Ed25519");
        this.jwtKey = jwt.getPrivate();
        Files.writeString(directory.resolve("jwt-public.pem"), pem("PUBLIC KEY", jwt.getPublic().getEncoded()));
        // for scripts that sign their own tokens, as the README's walk-through does with dev/token.sh
        Files.writeString(directory.resolve("jwt-private.pem"), pem("PRIVATE KEY", jwt.getPrivate().getEncoded()));
        Files.writeString(directory.resolve("audit.pem"), Ed25519Keys.privatePem(audit.getPrivate()));
        this.auditPublicKey = Files.writeString(directory.resolve("audit-public.pem"),
                Ed25519Keys.publicPem(audit.getPublic()));
    }

    /** The instance most tests share, started on first use and stopped when the test JVM exits. */
    static synchronized PackagedService shared() {
        if (shared == null) {
            shared = start("shared");
        }
        return shared;
    }

    /** An instance of its own, for tests that damage the log beyond repair. */
    static PackagedService start(String name) {
        requireJar();
        try {
            PackagedService service = new PackagedService(name);
            service.launch();
            Runtime.getRuntime().addShutdownHook(new Thread(service::stop, "stop " + name));
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void requireJar() {
        String message = "no packaged service at " + JAR.toAbsolutePath().normalize()
                + "; build it with ./mvnw package -DskipTests at the repository root";
        if ("1".equals(System.getenv("EVIDENCE_REQUIRE_SERVICE"))) {
            Assertions.assertTrue(Files.isRegularFile(JAR), message + " (EVIDENCE_REQUIRE_SERVICE=1)");
        }
        if (!Files.isRegularFile(JAR)) {
            System.err.println("SKIPPED: " + message);
        }
        Assumptions.assumeTrue(Files.isRegularFile(JAR), message);
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    private void launch() throws IOException {
        administer("DO $$ BEGIN CREATE ROLE " + RUNTIME_ROLE + " LOGIN; "
                + "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$",
                "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)", "CREATE DATABASE " + database);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx160m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.datasource.jdbc.url=jdbc:postgresql://" + PG_HOST + "/" + database,
                "-Dquarkus.datasource.username=" + RUNTIME_ROLE,
                "-Dquarkus.flyway.username=postgres", "-Dquarkus.flyway.password=trust",
                "-Devidence.storage.backend=filesystem",
                "-Devidence.storage.filesystem.path=" + directory.resolve("blobs").toAbsolutePath(),
                "-Dmp.jwt.verify.publickey.location=" + directory.resolve("jwt-public.pem").toAbsolutePath(),
                "-DEVIDENCE_JWT_ISSUER=" + ISSUER,
                "-Devidence.audit.signing-key-location=" + directory.resolve("audit.pem").toAbsolutePath(),
                "-Devidence.audit.origin=" + origin,
                // a key left in flight by a request that never finished counts as abandoned after this, not 2 min:
                // the tests cut connections on purpose, and the CLI correctly waits such a key out
                "-Devidence.idempotency.abandoned-after=10s",
                "-jar", JAR.toAbsolutePath().toString()));
        Path log = directory.resolve("service.log");
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        awaitReady(Duration.ofSeconds(120), log);
    }

    private void awaitReady(Duration limit, Path log) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(limit);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + log);
            }
            try {
                if (http.send(HttpRequest.newBuilder(url().resolve("/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(Duration.ofMillis(200));
        }
        throw new IllegalStateException(name + " was not ready within " + limit + "; see " + log);
    }

    void stop() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            administer("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        } catch (RuntimeException e) {
            System.err.println("could not drop " + database + ": " + e);
        }
    }

    /** A bearer token signed RS256 with this instance's throwaway key, valid for an hour. */
    String token(String subject, String... roles) {
        long now = Instant.now().getEpochSecond();
        String payload = "{\"iss\":\"" + ISSUER + "\",\"sub\":\"" + subject + "\",\"upn\":\"" + subject
                + "\",\"groups\":[\"" + String.join("\",\"", roles) + "\"],\"iat\":" + now + ",\"exp\":"
                + (now + 3600) + "}";
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String signingInput = url.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
                + "." + url.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(jwtKey);
            rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + url.encodeToString(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The database as its owner sees it, to count rows and to tamper as whoever can write it could. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + PG_HOST + "/" + database, "postgres", null);
    }

    PublicKey auditKey() throws IOException {
        return Ed25519Keys.readPublicPem(Files.readString(auditPublicKey));
    }

    private static void administer(String... statements) {
        try (Connection connection = DriverManager.getConnection("jdbc:postgresql://" + PG_HOST + "/postgres",
                "postgres", null); Statement sql = connection.createStatement()) {
            for (String statement : statements) {
                sql.execute(statement);
            }
        } catch (SQLException e) {
            if ("1".equals(System.getenv("EVIDENCE_REQUIRE_SERVICE"))) {
                throw new IllegalStateException("the CLI's integration tests need PostgreSQL on " + PG_HOST, e);
            }
            Assumptions.abort("no PostgreSQL on " + PG_HOST + " for the packaged service: " + e.getMessage());
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static KeyPair generate(String algorithm) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (algorithm.equals("RSA")) {
                generator.initialize(2048);
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + label + "-----\n";
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
