import org.jboss.logmanager.LogContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import java.util.logging.Level;

/**
 * The peer of the s3 backend's small-artifact rows in bench/run.sh: S3Proxy's own PutObject and GetObject of 10 KiB
 * objects, without the service in front, through the AWS SDK v2 on the Apache HTTP client as the service's s3 backend
 * talks to it (SigV4 with the test keys, path-style, no CRC trailers), with a pool of 64 connections so that the
 * client is not the limit.
 * <ul>
 * <li>PUT: distinct objects of FILE's size (random bytes, keys small-reference/put-N) by PUT_CLIENTS threads, each
 * timed; a warm-up of WARMUP objects (at most WARMUP_SECONDS) first, not counted; then up to PUT_COUNT objects,
 * none started after PUT_SECONDS.</li>
 * <li>GET: FILE stored once as small-reference/get.json and checked, then fetched whole by GET_CLIENTS threads, 2 s of
 * warm-up not counted, then GET_SECONDS timed.</li>
 * </ul>
 * Prints one JSON object: {putPerSecond, putP50, putP99 (ms), putDone, getPerSecond, getP50, getP99, getErrors}, null
 * for a phase skipped (PUT_COUNT 0, GET_SECONDS 0). A failed PUT ends the program with status 1; failed GETs are
 * counted. Run as a source file, with the SDK on the
 * classpath (target/s3proxy.classpath, written by ./mvnw test-compile):
 *
 *   java -cp "$(cat target/s3proxy.classpath)" bench/lib/S3SmallRate.java ENDPOINT BUCKET FILE WARMUP PUT_COUNT
 *        PUT_SECONDS GET_SECONDS [PUT_CLIENTS, default 16] [GET_CLIENTS, default 32]
 *        [WARMUP_SECONDS, default 30]
 */
@SuppressWarnings("deprecation") // ApacheHttpClient: the client the service's s3 backend uses (BlobStoreProducer)
public final class S3SmallRate {

    private static final int MAX_CONNECTIONS = 64;

    public static void main(String[] args) throws Exception {
        // unconfigured, the JBoss LogManager's loggers (this classpath's slf4j binding) have debug enabled, and the
        // SDK and its HTTP client would format debug messages for every request, only for them to be dropped
        LogContext.getLogContext().getLogger("").setLevel(Level.INFO);
        URI endpoint = URI.create(args[0]);
        String bucket = args[1];
        byte[] file = Files.readAllBytes(Path.of(args[2]));
        int warmup = Integer.parseInt(args[3]);
        int putCount = Integer.parseInt(args[4]);
        double putSeconds = Double.parseDouble(args[5]);
        double getSeconds = Double.parseDouble(args[6]);
        int putClients = args.length > 7 ? Integer.parseInt(args[7]) : 16;
        int getClients = args.length > 8 ? Integer.parseInt(args[8]) : 32;
        double warmupSeconds = args.length > 9 ? Double.parseDouble(args[9]) : 30;

        try (S3Client s3 = S3Client.builder()
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create("evidence-test", "evidence-test-secret")))
                .forcePathStyle(true)
                .endpointOverride(endpoint)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(MAX_CONNECTIONS))
                .build()) {
            AtomicInteger next = new AtomicInteger();
            Task put = () -> {
                byte[] body = new byte[file.length];
                ThreadLocalRandom.current().nextBytes(body);
                s3.putObject(b -> b.bucket(bucket).key("small-reference/put-" + next.getAndIncrement()),
                        RequestBody.fromBytes(body));
            };
            Result puts = null;
            if (putCount > 0) {
                run(put, putClients, warmup, warmupSeconds, true);
                puts = run(put, putClients, putCount, putSeconds, true);
            }

            Result gets = null;
            if (getSeconds > 0) {
                String key = "small-reference/get.json";
                s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(file));
                if (!Arrays.equals(file, s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray())) {
                    throw new IllegalStateException("S3Proxy served other bytes than were put");
                }
                Task get = () -> {
                    if (s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArrayUnsafe().length != file.length) {
                        throw new IllegalStateException("a GET came back short");
                    }
                };
                run(get, getClients, Integer.MAX_VALUE, 2, false);
                gets = run(get, getClients, Integer.MAX_VALUE, getSeconds, false);
            }

            System.out.println("{\"putPerSecond\":" + number(puts, "%.0f", Result::perSecond)
                    + ",\"putP50\":" + number(puts, "%.1f", r -> r.percentile(50))
                    + ",\"putP99\":" + number(puts, "%.1f", r -> r.percentile(99))
                    + ",\"putDone\":" + number(puts, "%.0f", r -> r.latencies.length)
                    + ",\"getPerSecond\":" + number(gets, "%.0f", Result::perSecond)
                    + ",\"getP50\":" + number(gets, "%.1f", r -> r.percentile(50))
                    + ",\"getP99\":" + number(gets, "%.1f", r -> r.percentile(99))
                    + ",\"getErrors\":" + number(gets, "%.0f", r -> r.errors) + "}");
        }
    }

    /** A figure of a phase as JSON: null when the phase was skipped or timed nothing. */
    private static String number(Result result, String format, ToDoubleFunction<Result> figure) {
        if (result == null || result.latencies.length == 0) {
            return "null";
        }
        return String.format(Locale.ROOT, format, figure.applyAsDouble(result));
    }

    interface Task {
        void run() throws Exception;
    }

    /** Latencies in ms, ascending, over seconds of wall time; failures counted when they do not end the run. */
    record Result(double[] latencies, double seconds, int errors) {
        double perSecond() {
            return latencies.length / seconds;
        }

        double percentile(double p) { // nearest rank, as bench/lib.mjs
            if (latencies.length == 0) {
                return Double.NaN;
            }
            int rank = (int) Math.ceil(p / 100 * latencies.length);
            return latencies[Math.min(latencies.length - 1, Math.max(0, rank - 1))];
        }
    }

    /** Runs task on clients threads until count have started or seconds have passed; fatal: a failure rethrows. */
    private static Result run(Task task, int clients, int count, double seconds, boolean fatal) throws Exception {
        AtomicInteger started = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<List<Double>> perThread = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        long deadline = start + (long) (seconds * 1e9);
        for (int c = 0; c < clients; c++) {
            List<Double> mine = new ArrayList<>();
            perThread.add(mine);
            threads.add(Thread.ofPlatform().start(() -> {
                while (failure.get() == null && System.nanoTime() < deadline && started.getAndIncrement() < count) {
                    long t0 = System.nanoTime();
                    try {
                        task.run();
                        mine.add((System.nanoTime() - t0) / 1e6);
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        if (fatal) {
                            failure.compareAndSet(null, e);
                        }
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        if (failure.get() != null) {
            throw failure.get();
        }
        double[] latencies = perThread.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).sorted().toArray();
        return new Result(latencies, elapsed, errors.get());
    }
}
