package dev.evidencestore.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a state-changing operation whose body is bytes of any type, or nothing, so that its {@code @Consumes} cannot
 * say what it refuses: {@link FormBodies} refuses the content types a page on another site can make a browser send.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface NoFormBodies {

    /**
     * For an operation that takes no body: only a request that sends one is refused. An empty form is no body, and
     * HTTP clients send a form type by default with an empty POST.
     */
    boolean bodiless() default false;
}
