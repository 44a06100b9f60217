package dev.evidencestore.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an operation that honours an {@code Idempotency-Key}: a retry with the same key is answered what the first
 * request was answered, instead of having a second effect. Every operation that creates or changes something carries
 * it, and the contract documents the header on exactly these (ContractTest holds the two together).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface Idempotent {

    /**
     * For uploads, whose bodies stream into the store and are never held in memory: a retry is recognised by the
     * digest and length the request declares, not by its bytes.
     */
    boolean streamedBody() default false;
}
