; WebView2 runtime check and bootstrapper, adapted from Wails v2.9.2
; (pkg/buildassets/build/windows/installer/wails_tools.nsh, macro
; wails.webview2runtime; compared again with Wails v2.15.0). The bootstrapper
; exe is the one Wails ships (internal/webview2runtime/MicrosoftEdgeWebview2Setup.exe);
; the build script passes its path as WEBVIEW2_SETUP.
;
; Differences from the Wails macro, for a per-user install:
; - HKCU is always checked (Wails checks it only when REQUEST_EXECUTION_LEVEL
;   is "user", a define of its own template);
; - "0.0.0.0" counts as missing (a runtime being uninstalled);
; - the bootstrapper's exit code is checked and a failure named.
; v2.15.0 fixed the missing backslash in Wails' HKCU key path
; ("Clients\{...}"), a difference this copy had before.
; See https://learn.microsoft.com/microsoft-edge/webview2/concepts/distribution

!define WEBVIEW2_CLIENT "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"

!macro openworker.webview2runtime
    SetRegView 64
    ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_CLIENT}" "pv"
    ${If} $0 == ""
        ReadRegStr $0 HKCU "Software\Microsoft\EdgeUpdate\Clients\${WEBVIEW2_CLIENT}" "pv"
    ${EndIf}
    ${If} $0 == ""
    ${OrIf} $0 == "0.0.0.0"
        SetDetailsPrint both
        DetailPrint "Installing: WebView2 Runtime"
        SetDetailsPrint listonly
        InitPluginsDir
        CreateDirectory "$PLUGINSDIR\webview2bootstrapper"
        SetOutPath "$PLUGINSDIR\webview2bootstrapper"
        File "${WEBVIEW2_SETUP}"
        ExecWait '"$PLUGINSDIR\webview2bootstrapper\MicrosoftEdgeWebview2Setup.exe" /silent /install' $1
        SetDetailsPrint both
        ${If} $1 != 0
            ; Visible: a box in interactive mode, the details list and the
            ; log otherwise. The app still installs: the CLI works without
            ; WebView2, and the app says what to do at its start
            ; (app/webviewcheck.go, docs/install.md#webview2).
            DetailPrint "WebView2 Runtime setup failed (exit code $1). Install it from https://developer.microsoft.com/microsoft-edge/webview2/ (Evergreen Standalone Installer when offline)."
            IfSilent +2
            MessageBox MB_OK|MB_ICONEXCLAMATION "The Microsoft WebView2 Runtime could not be installed (its setup exited with $1; it needs the internet).$\r$\n$\r$\nOpenWorker Desktop cannot show its window without it. Install it from https://developer.microsoft.com/microsoft-edge/webview2/ : the Evergreen Bootstrapper when online, or the Evergreen Standalone Installer (x64) copied from a PC with internet. The command line works without it."
        ${EndIf}
    ${Else}
        DetailPrint "WebView2 Runtime $0 is already installed."
    ${EndIf}
!macroend
