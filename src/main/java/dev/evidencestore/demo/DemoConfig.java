package dev.evidencestore.demo;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The demo workspace: the seed investigation INC-1423, loaded at startup through the services when asked for
 * ({@code %dev.evidence.demo.load=true}; elsewhere {@code EVIDENCE_DEMO_LOAD=true}).
 */
@ConfigMapping(prefix = "evidence.demo")
public interface DemoConfig {

    /** Whether to load the demo investigation at startup; loading it again when it is there does nothing. */
    @WithDefault("false")
    boolean load();

    /** The workspace it is loaded into. */
    @WithDefault("demo")
    String workspace();
}
