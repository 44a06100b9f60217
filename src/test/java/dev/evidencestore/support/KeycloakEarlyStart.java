package dev.evidencestore.support;

import io.quarkus.test.junit.TestProfile;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.launcher.LauncherDiscoveryListener;
import org.junit.platform.launcher.LauncherDiscoveryRequest;

/**
 * Launches {@link KeycloakServer} as soon as a test run begins that includes a test of the sign-in profile
 * ({@code @TestProfile(Profiles.SignIn.class)}), before Quarkus builds the profiles' applications: Keycloak's minute
 * of starting then passes beside the tests that run before that profile's, not in front of it. Registered in
 * META-INF/services; a run without such a test (say {@code -Dtest=ArchitectureTest}) starts no Keycloak.
 */
public class KeycloakEarlyStart implements LauncherDiscoveryListener {

    @Override
    public void launcherDiscoveryStarted(LauncherDiscoveryRequest request) {
        if (request.getSelectorsByType(ClassSelector.class).stream().anyMatch(KeycloakEarlyStart::signsIn)) {
            KeycloakServer.launch("the test plan");
        }
    }

    private static boolean signsIn(ClassSelector selector) {
        try {
            // not initialised: only its annotation is read; by name, since Quarkus may load it in a loader of its own
            Class<?> test = Class.forName(selector.getClassName(), false, KeycloakEarlyStart.class.getClassLoader());
            TestProfile profile = test.getAnnotation(TestProfile.class);
            return profile != null && profile.value().getName().equals(Profiles.SignIn.class.getName());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
