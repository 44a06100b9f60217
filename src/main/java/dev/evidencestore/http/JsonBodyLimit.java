package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A JSON body is read no further than {@code evidence.http.max-json-body}: one whose Content-Length declares more is
 * refused by {@link AdmissionControl} before it is read, and one without a length (chunked) fails here, with
 * {@link TooLarge}, as soon as it grows past the limit, so its bytes never pile up in memory.
 */
@Provider
public class JsonBodyLimit implements ReaderInterceptor {

    /**
     * A JSON body grew past the limit while it was read. An {@link IOException}, as a failing stream's are, so that
     * Jackson passes it on as it is instead of wrapping it as a field of the wrong form.
     */
    public static final class TooLarge extends IOException {
        private final long maxSize;

        TooLarge(long maxSize) {
            super("JSON bodies are limited to " + maxSize + " bytes; nothing was done");
            this.maxSize = maxSize;
        }

        public long maxSize() {
            return maxSize;
        }
    }

    /** Looked up when first needed: providers may be made before the service's configuration can be read. */
    private final Instance<EvidenceConfig> config;

    JsonBodyLimit(Instance<EvidenceConfig> config) {
        this.config = config;
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (isJson(context.getMediaType())) {
            context.setInputStream(bounded(context.getInputStream(), config.get().http().maxJsonBody().asLongValue()));
        }
        return context.proceed();
    }

    static boolean isJson(MediaType type) {
        return type != null && "application".equals(type.getType())
                && ("json".equals(type.getSubtype()) || type.getSubtype().endsWith("+json"));
    }

    /** {@code in}, failing with {@link TooLarge} at the first byte past {@code maxSize}. */
    static InputStream bounded(InputStream in, long maxSize) {
        return new FilterInputStream(in) {
            private long read;

            @Override
            public int read() throws IOException {
                int b = super.read();
                count(b < 0 ? -1 : 1);
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                count(n);
                return n;
            }

            private void count(int n) throws TooLarge {
                if (n > 0) {
                    read += n;
                    if (read > maxSize) {
                        throw new TooLarge(maxSize);
                    }
                }
            }
        };
    }
}
