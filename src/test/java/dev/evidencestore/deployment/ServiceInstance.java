package dev.evidencestore.deployment;

import dev.evidencestore.support.TestDatabase;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One instance of the packaged service (target/quarkus-app), run as its own process, as in production. */
public final class ServiceInstance {

    /** Where production runs it from: an AOT cache names the jars by their paths relative to it. */
    static final Path APP = Path.of("target/quarkus-app").toAbsolutePath();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public final String name;
    public final int port;
    private final Map<String, String> settings;
    private final List<String> jvmOptions;
    private Process process;

    /**
     * What every instance needs: the database (through the two roles production should use), throwaway keys that
     * production would refuse from the published dev ones, and the audit log's origin; callers add their own.
     */
    public static Map<String, String> settings(String database, ThrowawayKeys keys, String origin) {
        Map<String, String> settings = new HashMap<>(TestDatabase.roles());
        settings.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + TestDatabase.HOST + "/" + database);
        settings.put("mp.jwt.verify.publickey.location", keys.jwtPublicKey.toAbsolutePath().toString());
        settings.put("EVIDENCE_JWT_ISSUER", ThrowawayKeys.ISSUER);
        settings.put("evidence.audit.signing-key-location", keys.auditSigningKey.toAbsolutePath().toString());
        settings.put("evidence.audit.origin", origin);
        return settings;
    }

    /** Any port free now: a fixed one met another run's service on the same machine and got its 401s. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    public ServiceInstance(String name, int port, Map<String, String> settings) {
        this(name, port, settings, List.of());
    }

    public ServiceInstance(String name, int port, Map<String, String> settings, List<String> jvmOptions) {
        this.name = name;
        this.port = port;
        this.settings = settings;
        this.jvmOptions = jvmOptions;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public ServiceInstance start() throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-Dquarkus.http.port=" + port));
        command.addAll(jvmOptions);
        settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", "quarkus-run.jar"));
        Path log = Path.of("target/it-logs/" + name + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        process = new ProcessBuilder(command).directory(APP.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return this;
    }

    /** Waits until /q/health/ready answers 200, or fails naming the log to read. */
    public void awaitReady(Duration limit) throws InterruptedException {
        Instant deadline = Instant.now().plus(limit);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see target/it-logs/"
                        + name + ".log");
            }
            if (ready()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " was not ready within " + limit + "; see target/it-logs/" + name + ".log");
    }

    private boolean ready() throws InterruptedException {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri("/q/health/ready")).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed, as when a node dies. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    public void stop() throws InterruptedException {
        stop(Duration.ofSeconds(10));
    }

    /** SIGTERM, then SIGKILL if it has not exited within the grace period; the exit status, or -1 if killed. */
    public int stop(Duration grace) throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
                return -1;
            }
        }
        return process == null ? 0 : process.exitValue();
    }
}
