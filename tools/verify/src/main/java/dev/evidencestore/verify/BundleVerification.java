package dev.evidencestore.verify;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The bundle check of {@code verify bundle}, callable from other programs (the evidence CLI): the same checks and
 * the same lines, one a check, and the same exit status, 0 when all passed, 1 when one failed, 2 for a usage error.
 */
public final class BundleVerification {

    private BundleVerification() {
    }

    public static int run(Path bundle, List<Path> keys, PrintStream out, PrintStream err) {
        List<String> arguments = new ArrayList<>();
        arguments.add(bundle.toString());
        for (Path key : keys) {
            arguments.add("--key");
            arguments.add(key.toString());
        }
        return new BundleCommand().run(arguments, out, err);
    }
}
