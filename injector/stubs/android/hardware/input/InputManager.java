package android.hardware.input;

import android.os.Build;
import android.view.InputEvent;

/**
 * JVM test stub. As on Android 14+, the hidden getInstance() fails outside an application there:
 * it is Objects.requireNonNull(ActivityThread.currentApplication()).getSystemService(...), and an
 * app_process program has no Application, so the injector must use InputManagerGlobal instead.
 */
public final class InputManager {
    private static final InputManager INSTANCE = new InputManager();

    private InputManager() {}

    public static InputManager getInstance() {
        if (Build.VERSION.SDK_INT >= 34) {
            throw new NullPointerException("ActivityThread.currentApplication() is null (stub, SDK_INT >= 34)");
        }
        StubRecorder.record("getInstance android.hardware.input.InputManager");
        return INSTANCE;
    }

    public boolean injectInputEvent(InputEvent event, int mode) {
        return StubRecorder.inject(event, mode);
    }
}
