package exec

import (
	"regexp"
	"sync"
)

// androidPermissionGroups are Maestro's permission names on Android
// (AndroidDriver.translatePermissionName); every Android device, through
// adb or through Appium, grants the same ones.
var androidPermissionGroups = map[string][]string{
	"location":      {"android.permission.ACCESS_FINE_LOCATION", "android.permission.ACCESS_COARSE_LOCATION"},
	"camera":        {"android.permission.CAMERA"},
	"contacts":      {"android.permission.READ_CONTACTS", "android.permission.WRITE_CONTACTS"},
	"phone":         {"android.permission.CALL_PHONE", "android.permission.ANSWER_PHONE_CALLS"},
	"microphone":    {"android.permission.RECORD_AUDIO"},
	"bluetooth":     {"android.permission.BLUETOOTH_CONNECT", "android.permission.BLUETOOTH_SCAN"},
	"storage":       {"android.permission.WRITE_EXTERNAL_STORAGE", "android.permission.READ_EXTERNAL_STORAGE"},
	"notifications": {"android.permission.POST_NOTIFICATIONS"},
	"medialibrary": {"android.permission.WRITE_EXTERNAL_STORAGE", "android.permission.READ_EXTERNAL_STORAGE",
		"android.permission.READ_MEDIA_AUDIO", "android.permission.READ_MEDIA_IMAGES", "android.permission.READ_MEDIA_VIDEO"},
	"calendar": {"android.permission.WRITE_CALENDAR", "android.permission.READ_CALENDAR"},
	"sms":      {"android.permission.READ_SMS", "android.permission.RECEIVE_SMS", "android.permission.SEND_SMS"},
}

var notPermissionChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._]+`) })

// AndroidPermissions are the Android permissions a Maestro permission
// name stands for: a group name (camera, location, ...) gives its
// permissions, any other name is taken as a permission itself, stripped
// of characters no permission has (Maestro passes it to pm).
func AndroidPermissions(name string) []string {
	if names, ok := androidPermissionGroups[name]; ok {
		return names
	}
	return []string{notPermissionChars().ReplaceAllString(name, "")}
}
