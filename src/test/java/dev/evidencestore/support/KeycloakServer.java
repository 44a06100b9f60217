package dev.evidencestore.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real identity provider for the sign-in tests: Keycloak's server distribution, which Maven unpacks into
 * {@code target/keycloak} (pom.xml), started with {@code start-dev} on a free port with the realm
 * {@code src/test/resources/keycloak/evidence-realm.json} imported into an in-memory database. As a Quarkus test
 * resource it points the service's sign-in at it, and its bearer-token verification too: one provider issues both,
 * as in production. One server serves the whole test JVM and stops with it.
 *
 * <p>Its first start builds the distribution for start-dev (about 25 s of CPU) and then starts it (about 35 s), so
 * {@link KeycloakEarlyStart} launches it as soon as the test plan shows it will be needed, and the tests before the
 * sign-in profile's run beside it. Keycloak needs Java 21 or later: the newest JDK under {@code /usr/lib/jvm}, or
 * {@code EVIDENCE_KEYCLOAK_JAVA_HOME}.
 */
public final class KeycloakServer implements QuarkusTestResourceLifecycleManager {

    public static final String REALM = "evidence";
    /** The service's client, as application.properties' quarkus.oidc.* name it in production. */
    public static final String CLIENT_ID = "evidence-store";
    public static final String CLIENT_SECRET = "evidence-store-secret";
    /** The realm's client for command-line tools, which get bearer tokens with a password (tests only). */
    public static final String CLI_CLIENT_ID = "evidence-cli";
    public static final Path REALM_FILE = Path.of("src/test/resources/keycloak/evidence-realm.json");
    public static final Path LOG = Path.of("target/keycloak.log");

    /** Set by pom.xml, which unpacks the distribution of its keycloak.version there. */
    private static final Path HOME = Path.of(System.getProperty("keycloak.home", "target/keycloak/missing"));
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Path JVMS = Path.of("/usr/lib/jvm");
    private static final int MIN_JAVA = 21;
    private static final Duration STARTUP = Duration.ofMinutes(5);
    /**
     * Keycloak's own JVM settings with C1 only and the serial collector: a start on two cores costs about half the
     * CPU of its defaults (G1 and C2), and the server then only answers a few logins.
     */
    private static final String JAVA_OPTS = "-XX:MetaspaceSize=96M -XX:MaxMetaspaceSize=256m -Xms128m -Xmx512m "
            + "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -Dfile.encoding=UTF-8 "
            + "-Djava.security.egd=file:/dev/urandom";
    private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    /**
     * The launched server, in system properties rather than fields: the early start ({@link KeycloakEarlyStart})
     * runs in the JVM's class loader, the test resource in one of Quarkus's, and each has its own copy of this class.
     */
    private static final String PID = "test.keycloak.pid";
    private static final String PORT = "test.keycloak.port";
    private static final String SERVICE_PORT = "test.keycloak.service-port";
    private static final String LAUNCHED = "test.keycloak.launched";
    private static final String LAUNCHED_BY = "test.keycloak.launched-by";
    private static final String READY = "test.keycloak.ready";

    /** A launched server: its process, its port, and the port the service under test is to listen on. */
    private record Running(ProcessHandle process, int port, int servicePort, Instant launched, String launchedBy) {

        static Running current() {
            long pid = Long.parseLong(System.getProperty(PID));
            return new Running(ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException(
                    "Keycloak (pid " + pid + ") is gone; see " + LOG)), Integer.getInteger(PORT),
                    Integer.getInteger(SERVICE_PORT), Instant.ofEpochMilli(Long.getLong(LAUNCHED)),
                    System.getProperty(LAUNCHED_BY));
        }
    }

    /** Launches the server unless it runs already, without waiting for it; {@code by} says who asked, for the log. */
    static void launch(String by) {
        synchronized (System.getProperties()) {
            if (System.getProperty(PID) == null) {
                start(by);
            }
        }
    }

    @Override
    public Map<String, String> start() {
        launch("the sign-in profile");
        Running server = awaitReady();
        String issuer = issuer(server);
        return Map.of(
                "evidence.web.sign-in.enabled", "true",
                "quarkus.oidc.auth-server-url", issuer,
                "quarkus.oidc.client-id", CLIENT_ID,
                "quarkus.oidc.credentials.secret", CLIENT_SECRET,
                // the realm's redirect URIs name this port: Keycloak imported them before the service started
                "quarkus.http.test-port", String.valueOf(server.servicePort()),
                // the test profile's own key (application.properties) would win over one without the profile
                "%test.mp.jwt.verify.publickey.location", issuer + "/protocol/openid-connect/certs",
                "mp.jwt.verify.issuer", issuer,
                "mp.jwt.verify.audiences", CLIENT_ID);
    }

    @Override
    public void stop() {
        // the server outlives one start of the service and stops with the JVM (shutdown hook); by now the sign-in
        // tests are done, and what Keycloak cost the run is known
        System.out.printf("Keycloak used %.1f s of CPU, its first start's build included%n",
                cpuSeconds(Running.current().process()));
    }

    /**
     * The CPU Keycloak has used: kc.sh's process with the children it waited for (the JVM that built the
     * distribution, after which the server's JVM replaces kc.sh), and the children still running (the server's JVM
     * when no build was needed). Linux's /proc counts in USER_HZ ticks of 1/100 s.
     */
    private static double cpuSeconds(ProcessHandle kc) {
        long ticks = ticks(kc, true) + kc.descendants().mapToLong(child -> ticks(child, false)).sum();
        return ticks / 100.0;
    }

    private static long ticks(ProcessHandle process, boolean withWaitedChildren) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            // after "pid (name) ": utime, stime, cutime and cstime are the 12th to 15th fields
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return withWaitedChildren ? ticks + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : ticks;
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }

    /** The realm's issuer, such as {@code http://localhost:27411/realms/evidence}. */
    public static String issuer() {
        return issuer(awaitReady());
    }

    private static String issuer(Running server) {
        return "http://localhost:" + server.port() + "/realms/" + REALM;
    }

    /** A realm user's password, as the realm file sets it. */
    public static String password(String user) {
        return user + "-password";
    }

    /** A realm user's bearer token, as a command-line tool gets one (the password grant of {@link #CLI_CLIENT_ID}). */
    public static String accessToken(String user) {
        String form = "grant_type=password&client_id=" + CLI_CLIENT_ID + "&username=" + user + "&password="
                + password(user) + "&scope=openid";
        HttpRequest request = HttpRequest.newBuilder(URI.create(issuer() + "/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        String body = send(request).body();
        Matcher token = Pattern.compile("\"access_token\":\"([^\"]+)\"").matcher(body);
        if (!token.find()) {
            throw new IllegalStateException("Keycloak gave " + user + " no access token: " + body);
        }
        return token.group(1);
    }

    private static void start(String by) {
        try {
            Path imports = HOME.resolve("data/import");
            Files.createDirectories(imports);
            Files.copy(REALM_FILE, imports.resolve(REALM_FILE.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            int port = freePort();
            int servicePort = freePort();
            ProcessBuilder builder = new ProcessBuilder(HOME.resolve("bin/kc.sh").toString(), "start-dev",
                    "--http-port=" + port, "--db=dev-mem", "--import-realm")
                    .redirectErrorStream(true).redirectOutput(LOG.toFile());
            builder.environment().put("JAVA_HOME", javaHome().toString());
            builder.environment().put("JAVA_OPTS", JAVA_OPTS);
            // the realm file's redirect URIs read it
            builder.environment().put("EVIDENCE_STORE_URL", "http://localhost:" + servicePort);
            Instant launched = Instant.now();
            Process server = builder.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server.toHandle()), "stop Keycloak"));
            System.setProperty(PID, String.valueOf(server.pid()));
            System.setProperty(PORT, String.valueOf(port));
            System.setProperty(SERVICE_PORT, String.valueOf(servicePort));
            System.setProperty(LAUNCHED, String.valueOf(launched.toEpochMilli()));
            System.setProperty(LAUNCHED_BY, by);
        } catch (IOException e) {
            throw new UncheckedIOException("Keycloak did not start from " + HOME + " (./mvnw test-compile unpacks it)",
                    e);
        }
    }

    private static Running awaitReady() {
        Running server = Running.current();
        if (System.getProperty(READY) != null) {
            return server;
        }
        URI discovery = URI.create(issuer(server) + "/.well-known/openid-configuration");
        Instant waiting = Instant.now();
        Instant deadline = server.launched().plus(STARTUP);
        while (!answers(discovery)) {
            if (!server.process().isAlive()) {
                throw new IllegalStateException("Keycloak exited; see " + LOG);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("Keycloak did not answer within " + STARTUP + "; see " + LOG);
            }
            pause();
        }
        report(server, waiting);
        System.setProperty(READY, "true");
        return server;
    }

    /** One line in the test output: what Keycloak's start cost the run (docs/testing.md quotes it). */
    private static void report(Running server, Instant waiting) {
        Instant now = Instant.now();
        System.out.printf("Keycloak ready on %s: %s launched it %.1f s ago, the tests waited %.1f s for it%n",
                issuer(server), server.launchedBy(), seconds(server.launched(), now), seconds(waiting, now));
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }

    private static boolean answers(URI uri) {
        try {
            return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build()).statusCode() == 200;
        } catch (UncheckedIOException notYet) {
            return false;
        }
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void stop(ProcessHandle server) {
        // kc.sh passes the TERM on to Keycloak's JVM and waits for it
        server.destroy();
        try {
            server.onExit().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A port that is free now, below the kernel's ephemeral range (32768 and up), where the ports other tests bind
     * to as port 0 come from: the service binds this one minutes later, once its profile starts.
     */
    private static int freePort() throws IOException {
        for (int tries = 0; tries < 100; tries++) {
            int port = ThreadLocalRandom.current().nextInt(20000, 32000);
            try (ServerSocket socket = new ServerSocket(port)) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // another one
            }
        }
        throw new IOException("no free port between 20000 and 32000");
    }

    /** The JDK Keycloak runs on: {@code EVIDENCE_KEYCLOAK_JAVA_HOME}, else the newest one of 21 or later. */
    private static Path javaHome() throws IOException {
        String configured = System.getenv("EVIDENCE_KEYCLOAK_JAVA_HOME");
        if (configured != null) {
            return Path.of(configured);
        }
        List<Path> candidates = new ArrayList<>();
        try (Stream<Path> jvms = Files.list(JVMS)) {
            jvms.filter(jvm -> majorVersion(jvm).orElse(0) >= MIN_JAVA).forEach(candidates::add);
        }
        return candidates.stream().max(Comparator.comparing(jvm -> majorVersion(jvm).orElse(0)))
                .orElseThrow(() -> new IOException("Keycloak needs Java " + MIN_JAVA + " or later: none under " + JVMS
                        + "; set EVIDENCE_KEYCLOAK_JAVA_HOME"));
    }

    private static Optional<Integer> majorVersion(Path jvm) {
        Path release = jvm.resolve("release");
        try {
            Matcher version = JAVA_VERSION.matcher(Files.readString(release));
            return version.find() ? Optional.of(Integer.parseInt(version.group(1))) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(250);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Keycloak started", e);
        }
    }
}
